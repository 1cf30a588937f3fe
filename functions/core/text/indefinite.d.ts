/** Types of the `indefinite` package (a/an for a word, numbers and acronyms included); it ships none. */
declare module 'indefinite' {
  function indefinite(word: string | number, options?: { articleOnly?: boolean; capitalize?: boolean; caseInsensitive?: boolean; numbers?: 'colloquial' }): string;
  export = indefinite;
}
