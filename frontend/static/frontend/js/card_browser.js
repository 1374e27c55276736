// The card browser page (/cards/): the search widget, with the query kept in the address bar.
import { createCardSearch } from "./card_search.js";

createCardSearch(document.getElementById("card-browser"), {
  onSearch(q) {
    const url = new URL(location.href);
    if (q) url.searchParams.set("q", q); else url.searchParams.delete("q");
    history.replaceState(null, "", url);
  },
});
