import { PAGE_ASSETS } from "./page-assets.generated";
import { jsonError, secureResponse } from "./inspector-responses";

/**
 * The page: an empty shell whose script renders everything (no inline script or style, so the
 * Content-Security-Policy allows none). What the page may do is told by data attributes.
 */
export function inspectorPage(settings: { allowDelete: boolean; recall: boolean }): Response {
  const body = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>agentcore inspector</title>
<link rel="stylesheet" href="assets/style.css">
<script type="module" src="assets/app.js"></script>
</head>
<body data-allow-delete="${settings.allowDelete}" data-recall="${settings.recall}">
<div id="app"><noscript>The inspector needs JavaScript.</noscript></div>
</body>
</html>
`;
  return secureResponse(body, 200, { "content-type": "text/html; charset=utf-8" });
}

/** One of the page's files (preact, hooks, htm, the app, its style), from the package itself. */
export function inspectorAsset(name: string): Response {
  const asset = Object.hasOwn(PAGE_ASSETS, name) ? PAGE_ASSETS[name] : undefined;
  if (!asset) return jsonError(404, "Not found.");
  return secureResponse(asset.body, 200, { "content-type": `${asset.type}; charset=utf-8` });
}
