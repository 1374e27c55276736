"""The game kinds: one online-play layer for every game, each game plugged in through one interface.

`kind` holds the boundary (`GameKind[S, A]`, `Result`, `LegalActions`), `registry` the kinds on offer
(`get_game`), `commandeer` and `westeros` the two games. Callers import the module they need; this
package re-exports nothing.
"""
