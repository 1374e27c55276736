"""`player_view` carries the public facts clients show: castles (W-18), control (W-8.1), combat numbers (W-9.3)."""

from __future__ import annotations

from boardgame.engine.actions import PlayHouseCard
from boardgame.engine.data import GameData
from boardgame.engine.game import new_game

from .conftest import combat, do, pos


def test_view_counts_castles_and_names_controllers_w_18_w_8_1(gd: GameData) -> None:
    st = pos(units={"harrenhal": ["lannister", "footman"]}, tokens={"the_twins": "stark"})
    for h in [*st.houses, None]:
        v = st.player_view(h)
        assert v["castles"] == {house: st.castle_count(house) for house in st.houses}
        assert v["control"]["harrenhal"] == "lannister" and v["control"]["the_twins"] == "stark"
        assert v["control"]["winterfell"] == "stark"  # a home area stays its house's (W-8.1)
        assert all(a in gd.land_areas for a in v["control"])
        assert v["combat_strength"] is None
    assert st.player_view(None)["castles"]["lannister"] == 2  # Lannisport and Harrenhal


def test_view_combat_numbers_are_public_and_hide_a_chosen_card_w_9_3_w_20_6() -> None:
    st = combat(["footman", "knight"], ["footman"], None, None)
    do(st, PlayHouseCard("lannister", "tywin_lannister"))
    other = combat(["footman", "knight"], ["footman"], None, None)
    do(other, PlayHouseCard("lannister", "the_hound"))
    # Lannister's secret choice does not show in anyone else's numbers.
    assert st.player_view("stark")["combat_strength"] == other.player_view("stark")["combat_strength"]
    assert st.player_view("stark")["combat_strength"] == {
        "lannister": {"strength": 3, "swords": 0, "forts": 0},  # footman 1 + knight 2, plain March
        "stark": {"strength": 1, "swords": 0, "forts": 0},
    }
    do(st, PlayHouseCard("stark", "eddard_stark"))
    assert st.combat is not None  # revealed together: the numbers now include both cards
    view = st.player_view(None)["combat_strength"]
    assert view == st.combat_numbers()
    assert view["lannister"]["strength"] == 7 and view["stark"] == {"strength": 5, "swords": 2, "forts": 0}


def test_new_game_view_keeps_the_existing_keys(gd: GameData) -> None:
    v = new_game(gd, player_count=3, seed=1).player_view("stark")
    for key in ("houses", "units", "orders", "pending", "log", "player", "current_players", "log_length"):
        assert key in v
