// Value and option preparation for res.cookie / res.clearCookie.
import cookie from 'cookie'
import signature from 'cookie-signature'

/** Options of `res.cookie(name, value, options)`: the `cookie` serialiser's plus `signed`. */
export interface CookieOptions {
  domain?: string
  encode?: (value: string) => string
  expires?: Date
  httpOnly?: boolean
  maxAge?: number | string
  path?: string | null
  partitioned?: boolean
  priority?: 'low' | 'medium' | 'high' | 'Low' | 'Medium' | 'High'
  secure?: boolean
  sameSite?: boolean | 'lax' | 'strict' | 'none' | 'Lax' | 'Strict' | 'None'
  signed?: boolean
  [option: string]: unknown
}

/**
 * Build one `Set-Cookie` line: objects (and `null`) become `j:` + JSON,
 * anything else its string form; `signed` prefixes `s:` and signs with
 * `secret`; `maxAge` (milliseconds) sets both `Expires` and `Max-Age`
 * (whole seconds); `path` defaults to `/`.
 */
export function serializeCookie(name: string, value: unknown, options: CookieOptions | undefined, secret: string | undefined): string {
  const opts: Record<string, any> = { ...options }
  if (opts.signed && !secret) throw new Error('cookieParser("secret") required for signed cookies')
  let val = typeof value === 'object' ? 'j:' + JSON.stringify(value) : String(value)
  if (opts.signed) val = 's:' + signature.sign(val, secret as string)
  if (opts.maxAge != null) {
    const ms = opts.maxAge - 0
    // A non-numeric maxAge is left as given: the serialiser rejects it.
    if (!Number.isNaN(ms)) {
      opts.expires = new Date(Date.now() + ms)
      opts.maxAge = Math.floor(ms / 1000)
    }
  }
  if (opts.path == null) opts.path = '/'
  return cookie.serialize(name, val, opts)
}

/**
 * The options that clear a cookie: the caller's, with `path` defaulting to
 * `/`, `expires` forced into 1970 and any `maxAge` dropped.
 */
export function clearingOptions(options: CookieOptions | undefined): CookieOptions {
  const opts: CookieOptions = { path: '/', ...options, expires: new Date(1) }
  delete opts.maxAge
  return opts
}
