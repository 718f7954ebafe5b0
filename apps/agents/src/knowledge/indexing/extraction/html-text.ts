import { convert } from 'html-to-text';

const SKIP = ['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'nav', 'img', 'button', 'form'];

/**
 * The readable text of an HTML page through html-to-text: headings and paragraphs become paragraphs, links
 * keep their words without their URLs, and scripts, styles, navigation and images are dropped.
 */
export function htmlText(html: string): string {
  return convert(html, {
    wordwrap: false,
    selectors: [
      ...SKIP.map((selector) => ({ selector, format: 'skip' })),
      { selector: 'a', options: { ignoreHref: true } },
      ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({
        selector,
        options: { uppercase: false },
      })),
      { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
    ],
  });
}
