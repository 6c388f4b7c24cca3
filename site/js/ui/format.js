// Numbers as the site writes them: a share as a percentage with a non-breaking space before
// “%”, as the article does (“92.0 %”).
export const percent = (share, digits = 1) => `${(100 * share).toFixed(digits)}\u00a0%`;
