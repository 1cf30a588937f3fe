// turndown's build without domino (it parses strings with a browser DOMParser, which Node lacks;
// core/text/markdown.ts always hands it a parsed tree instead). Same API as the package's types.
declare module 'turndown/lib/turndown.browser.cjs.js' {
  import TurndownService from 'turndown';
  export = TurndownService;
}
