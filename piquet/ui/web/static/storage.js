// @ts-check
// What the pages remember in this browser (a seat's token, the tables played, settings).

export const store = {
  /** @param {string} key @returns {string | null} */
  get(key) {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  /** @param {string} key @param {string | null | undefined} value */
  set(key, value) {
    try {
      if (value === null || value === undefined) localStorage.removeItem(key);
      else localStorage.setItem(key, value);
    } catch {
      /* storage unavailable (private mode): the page still works for this visit */
    }
  },
};
