// Numbers as the site writes them: a share as a percentage with a non-breaking space before
// “%”, as the article does (“92.0 %”).
export const percent = (share, digits = 1) => `${(100 * share).toFixed(digits)}\u00a0%`;

// A measured share: two decimals where one would round it to 100 % (99.96 % is not 100 %).
export const sharePercent = (share) => percent(share, share >= 0.9995 ? 2 : 1);
