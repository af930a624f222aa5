// Text as a regular expression that matches it literally.

/** `text` with every character a regular expression gives a meaning escaped. */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
