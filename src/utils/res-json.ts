// JSON and JSONP bodies for res.json / res.jsonp / res.send.

const HTML_SENSITIVE = /[<>&]/g
const HTML_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026' }
const LINE_SEPARATORS = /[\u2028\u2029]/g
const JSONP_UNSAFE = /[^[\]\w$.]/g

function escapeHtmlChar(c: string): string {
  return HTML_ESCAPES[c]
}

function escapeLineSeparator(c: string): string {
  return c === '\u2028' ? '\\u2028' : '\\u2029'
}

/**
 * `value` serialised as the app's settings ask, read in Express's order (a
 * wrapper of `app.get` sees it): with `json escape` the characters `<`, `>`
 * and `&` become `\u003c`, `\u003e` and `\u0026`; then `json replacer` and
 * `json spaces`. Returns `undefined` for values JSON cannot hold.
 */
export function jsonText(app: { get(setting: string): any }, value: unknown): string | undefined {
  const escape = app.get('json escape')
  const json: string | undefined = JSON.stringify(value, app.get('json replacer'), app.get('json spaces'))
  return escape && typeof json === 'string' ? json.replace(HTML_SENSITIVE, escapeHtmlChar) : json
}

/**
 * Wrap a JSON body in a guarded call to `callback`. The name keeps only
 * `[]`, word characters, `$` and `.`; U+2028 and U+2029 are escaped so the
 * body stays valid JavaScript.
 */
export function jsonpBody(callback: string, json: string | undefined): string {
  const name = callback.replace(JSONP_UNSAFE, '')
  const args = json === undefined ? '' : json.replace(LINE_SEPARATORS, escapeLineSeparator)
  return '/**/ typeof ' + name + " === 'function' && " + name + '(' + args + ');'
}
