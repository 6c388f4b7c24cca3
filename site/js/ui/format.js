// A share as a percentage with a non-breaking space before “%”, as the article does (“92.0 %”).
// Numbers Python decides come written (ptrnet.formats); this is for what the page decides itself,
// such as a chart's axis ticks.
export const percent = (share, digits = 1) => `${(100 * share).toFixed(digits)}\u00a0%`;
