// @ts-check
// The game's words on the page: numbers as the calls say them, the phases.

export const NUMBERS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
  "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"];
export const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];

/**
 * The computer's thinking time as the table says it: 1 -> "thinks up to 1 s", 0 -> "thinks without a time limit".
 * @param {number} budget CPU seconds per decision (0: no limit)
 * @returns {string}
 */
export function thinkingTime(budget) {
  return budget > 0 ? `thinks up to ${Math.round(budget * 1000) / 1000} s` : "thinks without a time limit";
}

/**
 * 49 -> "forty-nine", 160 -> "one hundred and sixty" (as the calls say them).
 * @param {number} n
 * @returns {string}
 */
export function numberWord(n) {
  if (n < 0) return "minus " + numberWord(-n);
  if (n < 20) return NUMBERS[n];
  if (n < 100) return TENS[Math.floor(n / 10)] + (n % 10 ? "-" + NUMBERS[n % 10] : "");
  if (n < 1000) {
    const rest = n % 100;
    return NUMBERS[Math.floor(n / 100)] + " hundred" + (rest ? " and " + numberWord(rest) : "");
  }
  return String(n);
}

export const capitalize = (/** @type {string} */ s) => (s ? s[0].toUpperCase() + s.slice(1) : s);

/**
 * What a player says when he scores: "Five." or "Five, twelve." (points, then his total).
 * @param {number} points
 * @param {number | null} [total]
 */
export function reckoning(points, total) {
  if (total === undefined || total === null || total === points) return capitalize(numberWord(points)) + ".";
  return `${capitalize(numberWord(points))}, ${numberWord(total)}.`;
}

/** @type {Record<string, string>} */
export const PHASES = {
  cut: "The cut",
  choose_dealer: "Choosing the dealer",
  deal: "The deal",
  bid: "The auction",
  carte_blanche: "Carte blanche",
  exchange: "The exchange",
  declare: "Declaring",
  play: "The play",
  over: "The partie is over",
};

/** @type {Record<string, string>} */
export const CATEGORY_WORDS = { point: "point", sequences: "sequences", sets: "sets" };
