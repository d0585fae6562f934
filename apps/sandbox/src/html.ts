const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);
}

/** Tagged template that escapes every interpolation unless it is already-rendered Html. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Interpolation = string | number | Html | null | undefined | false | readonly Interpolation[];

function render(part: Interpolation): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.value;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...values: Interpolation[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new Html(out);
}

// Self-contained on purpose: the sandbox must render with no network, so no fonts or CDNs.
const STYLES = `
:root { color-scheme: dark; --bg:#1e1f22; --card:#2b2d31; --text:#f2f3f5; --muted:#b5bac1; --accent:#5865f2; --accent-hover:#4752c4; --line:#3f4147; --warn:#f0b232; --danger:#f23f43; }
* { box-sizing: border-box; }
body { margin:0; min-height:100vh; background:var(--bg); color:var(--text); font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif; display:flex; justify-content:center; align-items:flex-start; padding:32px 16px; }
main { width:100%; max-width:var(--width, 560px); background:var(--card); border-radius:8px; padding:28px; box-shadow:0 8px 24px rgba(0,0,0,.35); }
h1 { font-size:22px; margin:8px 0 4px; text-align:center; }
h2 { font-size:12px; text-transform:uppercase; letter-spacing:.04em; color:var(--muted); margin:24px 0 8px; }
p { margin:4px 0; }
a { color:#00a8fc; overflow-wrap:anywhere; }
code { background:#1e1f22; padding:1px 5px; border-radius:4px; font-size:13px; overflow-wrap:anywhere; }
code.id { white-space:nowrap; }
.badge { display:inline-block; margin-bottom:12px; font-size:12px; color:#1e1f22; background:var(--warn); border-radius:4px; padding:2px 8px; font-weight:600; }
.center { text-align:center; }
.muted { color:var(--muted); font-size:13px; }
ul.plain { list-style:none; margin:0; padding:0; }
.scopes li { padding:8px 0; border-bottom:1px solid var(--line); }
.scopes li::before { content:"✓"; color:#23a55a; font-weight:700; margin-right:10px; }
.users li { border:1px solid var(--line); border-radius:8px; margin-bottom:10px; }
.users form { display:grid; grid-template-columns:48px 1fr; gap:4px 12px; align-items:center; padding:12px; }
.avatar { width:48px; height:48px; border-radius:50%; display:flex; align-items:center; justify-content:center; font-weight:700; font-size:20px; color:#fff; }
.app-avatar { width:72px; height:72px; font-size:30px; margin:0 auto; background:var(--accent); }
.name { font-weight:600; }
.signed-in { font-size:11px; font-weight:600; background:#23a55a; color:#fff; border-radius:4px; padding:1px 6px; margin-left:6px; }
.actions { grid-column:1 / -1; display:flex; flex-wrap:wrap; gap:8px; align-items:center; }
label { font-size:13px; color:var(--muted); }
select { background:#1e1f22; color:var(--text); border:1px solid var(--line); border-radius:4px; padding:6px; }
button { font:inherit; font-weight:600; border:0; border-radius:4px; padding:9px 16px; cursor:pointer; background:var(--accent); color:#fff; }
button:hover { background:var(--accent-hover); }
button:focus-visible, select:focus-visible, a:focus-visible { outline:3px solid #00a8fc; outline-offset:2px; }
button[disabled] { opacity:.5; cursor:not-allowed; }
button.secondary { background:transparent; color:var(--text); text-decoration:underline; }
.error { border-left:4px solid var(--danger); padding:8px 12px; background:#1e1f22; border-radius:4px; }
table { width:100%; border-collapse:collapse; font-size:13px; }
th, td { text-align:left; padding:6px 4px; border-bottom:1px solid var(--line); vertical-align:top; }
ol.messages { list-style:none; margin:0; padding:0; }
.message { padding:10px 0; border-bottom:1px solid var(--line); }
.message-head { display:flex; flex-wrap:wrap; gap:8px; align-items:baseline; margin:0; }
.author { font-weight:600; }
.app-tag { font-size:10px; font-weight:700; background:var(--accent); color:#fff; border-radius:3px; padding:0 4px; }
.content { white-space:pre-wrap; overflow-wrap:anywhere; margin:4px 0; }
.embed { border-left:4px solid var(--accent); background:#1e1f22; border-radius:4px; padding:8px 12px; margin:6px 0; }
.embed dl { margin:6px 0 0; }
.embed dt { font-weight:600; font-size:13px; }
.embed dd { margin:0 0 6px; white-space:pre-wrap; }
.components { display:flex; flex-wrap:wrap; gap:8px; margin-top:6px; align-items:center; }
.components form { display:inline-flex; flex-wrap:wrap; gap:6px; align-items:center; margin:0; }
button.secondary-style { background:#4e5058; }
button.success-style { background:#248046; }
button.danger-style { background:#da373c; }
.only-you { border:1px dashed var(--muted); border-radius:6px; padding:4px 12px; margin:12px 0; }
.modal { border:2px solid var(--accent); border-radius:8px; padding:16px; margin:16px 0; }
.modal h2, .channel-section h2 { font-size:16px; text-transform:none; letter-spacing:0; color:var(--text); margin-top:0; }
.field { display:flex; flex-direction:column; gap:4px; margin:12px 0; }
input[type=text], textarea { font:inherit; background:#1e1f22; color:var(--text); border:1px solid var(--line); border-radius:4px; padding:8px; width:100%; }
textarea { min-height:72px; resize:vertical; }
input:focus-visible, textarea:focus-visible { outline:3px solid #00a8fc; outline-offset:2px; }
nav.people { margin-bottom:20px; }
nav.people ul { display:flex; flex-wrap:wrap; gap:4px 12px; list-style:none; padding:0; margin:0; }
nav.people a[aria-current="page"] { font-weight:700; color:var(--text); text-decoration:none; }
.reactions { display:flex; flex-wrap:wrap; gap:6px; margin-top:6px; }
.reactions form { margin:0; }
.reactions button { padding:2px 8px; background:#2b2d31; border:1px solid var(--line); }
.reactions button[aria-pressed="true"] { border-color:var(--accent); background:#3c4270; }
details.message-actions { margin-top:4px; font-size:13px; }
details.message-actions summary, details.channel-section summary { cursor:pointer; color:var(--muted); }
details.message-actions form { display:flex; flex-wrap:wrap; gap:6px; align-items:center; margin:6px 0; }
summary:focus-visible { outline:3px solid #00a8fc; outline-offset:2px; }
`;

export function page(title: string, body: Html, options: { wide?: boolean } = {}): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${new Html(STYLES)}</style>
</head>
<body>
<main${options.wide ? new Html(' style="--width:820px"') : ''}>
${body}
</main>
</body>
</html>
`.value;
}

/**
 * A stable colour per id so the same person looks the same on every page. FNV-1a plus a final
 * mix, because fixture ids differ only in their last digits and a plain hash would map them
 * to near-identical hues.
 */
export function avatarColour(id: string): string {
  let hash = 0x811c9dc5;
  for (const ch of id) hash = Math.imul(hash ^ ch.charCodeAt(0), 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d);
  hash ^= hash >>> 12;
  return `hsl(${(hash >>> 0) % 360} 45% 42%)`;
}

/** First character, not first UTF-16 unit, so names starting with an emoji render whole. */
export function initial(name: string): string {
  return (Array.from(name)[0] ?? '?').toUpperCase();
}
