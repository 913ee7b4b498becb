// @ts-check
// The lobby: create a table against the computer or a room for two (GET /api/setup, POST /api/tables; see
// docs/protocol.md). This module starts the page: setup.js reads what the server offers, form.js fills the
// form from it, create.js creates the table, recent.js lists the tables this browser played, rooms.js the public
// rooms anyone may join or watch.

import { cardElement, ensureSprite } from "../cards.js";
import { displayControls } from "../display.js";
import { lang, languageChoice, t } from "../i18n.js";
import { guideHref, keepOffline, offline } from "../site/mode.js";
import { store } from "../storage.js";
import { $ } from "../table/dom.js";
import { setBusy, showError, submit } from "./create.js";
import { fillBudget, fillLevels, fillOptions, fillVariants, inputEl, selectEl, updateLevelHelp } from "./form.js";
import { showRecent } from "./recent.js";
import { showPublicRooms } from "./rooms.js";
import { loadSetup } from "./setup.js";
import { acceptDrops, openOnReviewPage, readFile } from "../review/records.js";

/** A record file chosen here, or dropped on the page, opens on the review page (docs/playing.md, "A record file"). */
function openRecords() {
  /** @param {File} file */
  const open = async (file) => {
    try {
      openOnReviewPage(await readFile(file));
    } catch (error) {
      showError(error instanceof Error ? error.message : String(error));
    }
  };
  const picker = inputEl("record-file");
  picker.addEventListener("change", () => picker.files && picker.files[0] && open(picker.files[0]));
  acceptDrops(open);
}

async function start() {
  keepOffline();
  if (offline) {
    // This site plays the computer in the browser: a room for two needs a server, and the page says so.
    for (const room of document.querySelectorAll("button[value=room]")) if (room instanceof HTMLElement) room.hidden = true;
    $("offline-friend").hidden = false;
  }
  ensureSprite();
  const hero = $("hero-cards");
  for (const c of ["AS", "KH", "QD", "JC"]) hero.append(cardElement(c));
  displayControls($("display"));
  languageChoice(/** @type {HTMLSelectElement} */ ($("language")));
  /** @type {HTMLAnchorElement} */ ($("guide-link")).href = guideHref("", "", lang); // the guides in the page's language
  inputEl("name").value = store.get("piquet.name") || "";
  $("variant").addEventListener("change", fillOptions);
  $("level").addEventListener("change", updateLevelHelp);
  const takebacks = store.get("piquet.takebacks");
  if (takebacks === "off" || takebacks === "fair" || takebacks === "free") selectEl("takebacks").value = takebacks;
  inputEl("tutor").checked = store.get("piquet.tutor") === "1";
  $("new-game").addEventListener("submit", (e) => submit(/** @type {SubmitEvent} */ (e)));
  showRecent();
  openRecords();
  try {
    await loadSetup();
  } catch {
    // Without the server's variants there is nothing to offer: the buttons stay disabled.
    showError(t("lobby.no_setup"));
    document.body.dataset.ready = "1";
    return;
  }
  fillVariants();
  fillLevels();
  fillBudget();
  fillOptions();
  showPublicRooms();
  // The buttons wait for the script and the setup (a click before would submit the bare form).
  setBusy(false);
  document.body.dataset.ready = "1";
}

start();
