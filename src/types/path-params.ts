// Route parameters inferred from a path literal, following the path-to-regexp 8
// syntax that the router compiles: `:name` and `:"quoted name"` parameters,
// `*name` wildcards (an array of segments), `{...}` optional groups (possibly
// nested) and `\\` escapes. Everything else in the path is literal text.
//
// The parser walks the string one character at a time with tail-recursive
// conditional types, so paths of several hundred characters stay well within
// the compiler's limits.

/** The `req.params` type of a route whose path is a regular expression or not a literal string. */
export interface ParamsDictionary {
  [key: string]: string
}

/** `req.params` of a route with a wildcard when the path is not a literal: values may be arrays. */
export type WildcardParamsDictionary = Record<string, string | string[]>

/** A string-keyed record of `T`. */
export interface Dictionary<T> {
  [key: string]: T
}

/** Parameters keyed by name or by position (unnamed regular-expression groups), all strings. */
export interface ParamsFlatDictionary {
  [key: string | number]: string
}

/** Either kind of `req.params` dictionary. */
export type Params = ParamsDictionary | ParamsFlatDictionary

type Digit = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9'

/** True for a character that may continue a parameter name (letters of any script, digits, `$`, `_`). */
type IsNameChar<C extends string> = C extends Digit | '$' | '_' | '\u200c' | '\u200d'
  ? true
  : Lowercase<C> extends Uppercase<C>
    ? false
    : true

/** Parser state: names found so far, split by kind and optionality. */
interface State {
  req: string
  opt: string
  wreq: string
  wopt: string
}

type Empty = { req: never; opt: never; wreq: never; wopt: never }

/** Add a parameter name to the state: `W` marks a wildcard, `D` is the optional-group depth. */
type Add<S extends State, N extends string, W extends boolean, D extends unknown[]> = N extends ''
  ? S
  : W extends true
    ? D extends []
      ? { req: S['req']; opt: S['opt']; wreq: S['wreq'] | N; wopt: S['wopt'] }
      : { req: S['req']; opt: S['opt']; wreq: S['wreq']; wopt: S['wopt'] | N }
    : D extends []
      ? { req: S['req'] | N; opt: S['opt']; wreq: S['wreq']; wopt: S['wopt'] }
      : { req: S['req']; opt: S['opt'] | N; wreq: S['wreq']; wopt: S['wopt'] }

/** Read a quoted name (`"..."`, with `\\` escapes) and continue parsing after it. */
type Quoted<P extends string, N extends string, W extends boolean, D extends unknown[], S extends State> =
  P extends `\\${infer C}${infer R}`
    ? Quoted<R, `${N}${C}`, W, D, S>
    : P extends `"${infer R}`
      ? Parse<R, D, Add<S, N, W, D>>
      : P extends `${infer C}${infer R}`
        ? Quoted<R, `${N}${C}`, W, D, S>
        : Add<S, N, W, D>

/** Read a bare name and continue parsing at the first character that cannot belong to it. */
type Name<P extends string, N extends string, W extends boolean, D extends unknown[], S extends State> =
  P extends `${infer C}${infer R}`
    ? IsNameChar<C> extends true
      ? Name<R, `${N}${C}`, W, D, S>
      : Parse<P, D, Add<S, N, W, D>>
    : Add<S, N, W, D>

/** Read the name after `:` or `*`. */
type Param<P extends string, W extends boolean, D extends unknown[], S extends State> = P extends `"${infer R}`
  ? Quoted<R, '', W, D, S>
  : Name<P, '', W, D, S>

/** Walk the path; `D` counts the open optional groups. */
type Parse<P extends string, D extends unknown[], S extends State> = P extends `${infer C}${infer R}`
  ? C extends '\\'
    ? R extends `${string}${infer After}`
      ? Parse<After, D, S>
      : S
    : C extends '{'
      ? Parse<R, [unknown, ...D], S>
      : C extends '}'
        ? Parse<R, D extends [unknown, ...infer Rest] ? Rest : [], S>
        : C extends ':'
          ? Param<R, false, D, S>
          : C extends '*'
            ? Param<R, true, D, S>
            : Parse<R, D, S>
  : S

/** Flatten an intersection into one object type (so it prints and compares as a plain object). */
type Simplify<T> = { [K in keyof T]: T[K] } & {}

type Build<S extends State> = Simplify<
  { [K in S['req']]: string } & { [K in S['opt']]?: string } & { [K in S['wreq']]: string[] } & {
    [K in Exclude<S['wopt'], S['req'] | S['wreq']>]?: string[]
  }
>

/**
 * The `req.params` type of a route path: parameters become `string`,
 * parameters inside `{}` become optional, wildcards (`*name`) become `string[]`.
 * A non-literal string falls back to {@link ParamsDictionary}.
 *
 * @example
 * type P = RouteParameters<'/users/:id/{:format}'> // { id: string; format?: string }
 * type F = RouteParameters<'/files/*path'>          // { path: string[] }
 */
export type RouteParameters<Path extends string> = string extends Path ? ParamsDictionary : Build<Parse<Path, [], Empty>>

/**
 * The `req.params` type for any path argument a router accepts: a string literal is
 * parsed; a regular expression, an array or a non-literal string gives {@link ParamsDictionary}.
 */
export type PathArgumentParams<Path> = Path extends string ? RouteParameters<Path> : ParamsDictionary

/** Any path argument a router accepts: a string, a regular expression, or an array of them. */
export type PathArgument = string | RegExp | ReadonlyArray<string | RegExp>

/** A path argument as `@types/express` names it: a string, a regular expression, or an array of them. */
export type PathParams = string | RegExp | Array<string | RegExp>
