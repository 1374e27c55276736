// The card browser page (/cards/): the search widget; its text and filters live in the address bar
// (?q=…&faction=…&type=…&cost=…), so a search is shareable and survives a reload.
import { createCardSearch } from "./card_search.js";

createCardSearch(document.getElementById("card-browser"));
