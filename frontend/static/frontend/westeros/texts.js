// The Westeros page's fixed words: phases, steps, headings, decision and option names (through the JS
// catalogue, so each reader sees them in the page's language).
import { fmt, ngettext, pgettext, _ } from "../js/i18n.js";

export const TRACK_NAMES = { iron_throne: _("Iron Throne"), fiefdoms: _("Fiefdoms"), kings_court: _("King's Court") };
export const DOMINANCE = { iron_throne: _("Iron Throne"), fiefdoms: _("Valyrian Steel Blade"), kings_court: _("Messenger Raven") };
export const PHASES = {
  setup: _("Set-up"), westeros: _("Westeros Phase"), planning: pgettext("Westeros", "Planning Phase"), action: _("Action Phase"), game_over: _("Game over"),
};
// The steps of a round (W-3.1), a combat and the bids, as the status line names them.
export const STEPS = {
  advance_round: _("next round"), reveal_westeros: _("Westeros cards revealed"), resolve_westeros: _("Westeros cards resolved"),
  assign_orders: _("placing orders"), reveal_orders: _("orders revealed"), messenger_raven: _("Messenger Raven"),
  raids: _("Raid orders"), marches: _("March orders"), consolidate: _("Consolidate Power orders"), cleanup: _("clean-up"),
  combat: _("combat"), clash_of_kings: _("Clash of Kings"), wildling_attack: _("wildling attack"),
};
export const PENDING_TEXT = {
  orders: _("Place an order in each of your areas (W-5.1)"),
  raven: _("Messenger Raven (W-5.5)"),
  raid: _("Resolve a Raid order (W-7.2)"),
  march_select: _("Choose a March order to resolve (W-6.2)"),
  march_move: _("Move your units (W-7.1)"),
  support: _("Declare support (W-9.2)"),
  house_card: _("Choose a house card — secret until both have chosen (W-9.4)"),
  consolidate: _("Resolve a Consolidate Power order (W-7.5)"),
  muster: _("Muster units (W-13)"),
  bid: _("Bid power tokens — secret until all have bid"),
};
// The heading while another house decides: who is acting, never "Move your units" to a house that waits.
export const OTHERS_TEXT = {
  raven: _("%(house)s is using the Messenger Raven (W-5.5)"),
  raid: _("%(house)s is resolving a Raid order (W-7.2)"),
  march_select: _("%(house)s is choosing a March order (W-6.2)"),
  march_move: _("%(house)s is marching (W-7.1)"),
  consolidate: _("%(house)s is resolving a Consolidate Power order (W-7.5)"),
  muster: _("%(house)s is mustering units (W-13)"),
};
export const MANY_TEXT = {
  orders: _("%(houses)s: placing orders (W-5.1)"),
  support: _("%(houses)s: declaring support (W-9.2)"),
  house_card: _("%(houses)s: choosing house cards (W-9.4)"),
  bid: _("%(houses)s: bidding power tokens"),
};
export const DECISION_TEXT = {
  raven_bury: _("Where does the top wildling card go?"),
  throne_of_blades: _("A Throne of Blades: choose the effect"),
  dark_wings: _("Dark Wings, Dark Words: choose the effect"),
  put_to_the_sword: _("Put to the Sword: choose the restriction"),
  blade: _("Use the Valyrian Steel Blade (+1)?"),
  tyrion: _("Tyrion Lannister: cancel the opponent's card?"),
  aeron: _("Aeron Damphair: swap your card?"),
  doran: _("Doran Martell: choose the track"),
  queen_of_thorns: _("Queen of Thorns: remove an adjacent order"),
  casualty: _("Choose a casualty"),
  retreat: _("Choose where to retreat"),
  robb_retreat: _("Robb Stark: choose where the loser retreats"),
  retreat_loss: _("Choose a unit to destroy (supply after retreat)"),
  reconcile: _("Destroy a unit to fit your supply (W-12.4)"),
  destroy: _("Destroy one of your units"),
  cersei: _("Cersei Lannister: remove an order"),
  renly: _("Renly Baratheon: upgrade a footman"),
  patchface: _("Patchface: discard an opponent's card"),
  port_takeover: _("Ships in the captured port"),
  muster_done: _("Mustering"),
  tie_order: _("Break the tie (Iron Throne holder)"),
  wildling_tie: _("Name the bidder (Iron Throne holder)"),
  kbw_reward: _("A King Beyond the Wall: take position 1 of a track"),
  kbw_track: _("A King Beyond the Wall: drop to the bottom of a track"),
  crow_reward: _("Crow Killers: replace a footman with a knight"),
  crow_knight: _("Crow Killers: replace a knight"),
  discard_card: _("Massing on the Milkwater: discard a card"),
  mammoth_reward: _("Mammoth Riders: take back a card"),
  preemptive: _("Preemptive Raid: choose the penalty"),
  preemptive_track: _("Preemptive Raid: choose the track"),
  horde_area: _("The Horde Descends: choose the area"),
  horde_reward: _("The Horde Descends: muster a unit"),
};

// Menu options that name order tokens (Put to the Sword, W-4.5): the printed names, as in the log.
export const OPTION_TEXT = { no_march_plus_one: _("No March +1 ★ orders"), no_defense_orders: _("No Defense orders") };
// Other menu options the engine names by a word ("done", "top", "bottom" …).
export const OPTION_WORDS = {
  done: _("Done"), pass: _("Pass"), yes: _("Yes"), no: _("No"), top: _("Top of the deck"), bottom: _("Bottom of the deck"),
  keep: _("Keep"), skip: _("Skip"), none: _("None"), decline: _("Decline"), use: _("Use"), cancel: _("Cancel"), swap: _("Swap"),
  look: _("Look at the top wildling card"), replace: _("Replace"), attacking_units: _("The attacking units"),
  destroy_units: _("Destroy units"), supply: _("Supply"), mustering: _("Mustering"), clash_of_kings: _("Clash of Kings"),
  collect_power: _("Collect power tokens"), nothing: _("Nothing happens"),
};
export const iconText = (c, long = false) => [
  c.swords ? fmt(ngettext("%(count)s sword", "%(count)s swords", c.swords), { count: c.swords }) : "",
  c.fortifications ? fmt(long ? ngettext("%(count)s fortification", "%(count)s fortifications", c.fortifications)
    : ngettext("%(count)s fort", "%(count)s forts", c.fortifications), { count: c.fortifications }) : "",
].filter(Boolean);
