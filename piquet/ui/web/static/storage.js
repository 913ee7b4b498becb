// @ts-check
// What the pages remember in this browser (a seat's token, the tables played, settings), and what a tab
// remembers of a table until it is closed (the cards selected for an exchange not yet made).

/**
 * A storage area read and written without failing: where the browser refuses storage (private mode), the page
 * still works for this visit.
 * @param {() => Storage} area
 */
function kept(area) {
  return {
    /** @param {string} key @returns {string | null} */
    get(key) {
      try {
        return area().getItem(key);
      } catch {
        return null;
      }
    },
    /** @param {string} key @param {string | null | undefined} value */
    set(key, value) {
      try {
        if (value === null || value === undefined) area().removeItem(key);
        else area().setItem(key, value);
      } catch {
        /* storage unavailable: the page still works for this visit */
      }
    },
    /** The keys held that begin with ``prefix``. @param {string} prefix @returns {string[]} */
    keys(prefix) {
      try {
        const found = [];
        const held = area();
        for (let i = 0; i < held.length; i++) {
          const key = held.key(i);
          if (key !== null && key.startsWith(prefix)) found.push(key);
        }
        return found;
      } catch {
        return [];
      }
    },
  };
}

/** This browser's storage, kept across visits. */
export const store = kept(() => localStorage);
/** This tab's storage, kept across reloads until the tab is closed. */
export const session = kept(() => sessionStorage);
