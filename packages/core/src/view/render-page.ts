import { createHash } from 'node:crypto';
import { embedJson } from './embed-json.js';
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_STYLE } from './page-style.js';

/**
 * The whole page: static markup, the inlined style and script, and the data as JSON blocks. No string of
 * the data is ever part of the markup: the script reads the blocks and draws them as text. The
 * Content-Security-Policy lets only this exact script run (by its hash) and fetch nothing, so even a
 * string that got into the markup could neither run nor reach the network.
 */
export function renderPage(data: unknown, details: unknown): string {
  const scriptHash = createHash('sha256').update(PAGE_SCRIPT).digest('base64');
  const policy = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `script-src 'sha256-${scriptHash}'`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>gz-bench</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<noscript>This page draws the gz-bench report with JavaScript; the data is in the JSON blocks of its source.</noscript>
<div id="app"></div>
<script type="application/json" id="gz-data">${embedJson(data)}</script>
<script type="application/json" id="gz-details">${embedJson(details)}</script>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}
