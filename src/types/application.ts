// The application type and the type of the `fw` function itself.
import type { EventEmitter } from 'node:events'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { ListenOptions } from 'node:net'
import type { Engine, NextFunction, RequestParamHandler } from './handlers'
import type { Application as CoreApplication, Express as CoreExpress, Locals } from 'express-serve-static-core'
import type { IRouter, IRouterMatcher, Router, RouteConstructor, RouterConstructor } from './router'
import type { Request } from './request'
import type { Response } from './response'
import type { BodyParserMiddleware, OptionsJson, OptionsRaw, OptionsText, OptionsUrlencoded } from './body'
import type { ServeStaticMiddleware, ServeStaticOptions } from './static'

/** Callback of `app.render(view, options, callback)`. */
/** What `app.render` calls back with, typed as @types/express types it (on success `err` is null; on failure `html` is undefined). */
export type RenderCallback = (err: Error, html: string) => void

/**
 * Everything an application carries. The public {@link Application} extends it through
 * the `express-serve-static-core` module, so augmentations of that module's
 * `Application` reach switchyard's. Not exported from the package.
 */
export interface ApplicationBase<LocalsObj extends Record<string, any> = Record<string, any>>
  extends EventEmitter,
    IRouter,
    Express.Application {
  /** Handle a request (the app is its own `http.createServer` listener). */
  (req: IncomingMessage, res: ServerResponse, next?: NextFunction): void

  /** Register a callback run when a route parameter named `name` (or any of `names`) is matched. */
  param(name: string | string[], handler: RequestParamHandler): this
  /** Initialise the app (called by `fw()`). */
  init(): void
  /** Apply the default settings (called by `init`). */
  defaultConfiguration(): void
  /** Register a template engine for an extension: `app.engine('html', ejs.__express)`. */
  engine(ext: string, fn: Engine): this
  /** Assign a setting (compiled when set: `etag`, `query parser`, `trust proxy`). */
  set(setting: string, val: any): this
  /** Read a setting with one argument; register a GET route with a path and handlers. */
  get: ((name: string) => any) & IRouterMatcher<this, 'get'>
  /** True when the setting is truthy. */
  enabled(setting: string): boolean
  /** True when the setting is falsy. */
  disabled(setting: string): boolean
  /** Set a boolean setting to true. */
  enable(setting: string): this
  /** Set a boolean setting to false. */
  disable(setting: string): this
  /** Render a view with the registered engine. */
  render(name: string, callback: RenderCallback): void
  render(name: string, options?: object, callback?: RenderCallback): void
  /** Start an HTTP server (`http.createServer(app).listen(...)`); the callback also receives listen errors. */
  listen(port: number, hostname: string, backlog: number, callback?: (error?: Error) => void): Server
  listen(port: number, hostname: string, callback?: (error?: Error) => void): Server
  listen(port: number, callback?: (error?: Error) => void): Server
  listen(callback?: (error?: Error) => void): Server
  listen(path: string, callback?: (error?: Error) => void): Server
  listen(handle: any | ListenOptions, listeningListener?: (error?: Error) => void): Server
  /** The app's mount path(s) with parents' paths: `''` at the top. */
  path(): string
  /** Emitted when the app is mounted on a parent. */
  on(event: 'mount', listener: (parent: Application) => void): this
  on(event: string | symbol, listener: (...args: any[]) => void): this

  /** The app's router (created on first access). */
  readonly router: Router
  /** The settings (prefer `app.get`/`app.set`). */
  settings: any
  /** Variables available to every view rendered by the app. */
  locals: LocalsObj & Locals
  /** The path(s) this app was mounted on. */
  mountpath: string | string[]
  /** The parent application once mounted. */
  parent?: Application | undefined
  /** The prototype of this app's requests (extend it to add methods). */
  request: Request
  /** The prototype of this app's responses (extend it to add methods). */
  response: Response
}

/**
 * An application (`fw()`): a request handler for `http.createServer` with
 * settings, a router, template engines and `listen`.
 *
 * @example
 * const app: Application = fw()
 * app.set('trust proxy', 'loopback').get('/', (req, res) => { res.send('hi') })
 */
export interface Application<LocalsObj extends Record<string, any> = Record<string, any>>
  extends CoreApplication<LocalsObj> {}

/** The application type as `@types/express` names it (what `fw()` returns). */
export interface Express extends CoreExpress {}

/**
 * The type of the default export `fw`: create an application, plus the router,
 * body parsers, static middleware and prototypes hanging off it.
 *
 * @example
 * import fw, { json, Router } from 'switchyardjs'
 * const app = fw()
 */
export interface Switchyard {
  /** Create an application. */
  (): Express
  /** Create a router. */
  Router: RouterConstructor
  /** The route class. */
  Route: RouteConstructor
  /** JSON body parser. */
  json(options?: OptionsJson): BodyParserMiddleware
  /** Raw (Buffer) body parser. */
  raw(options?: OptionsRaw): BodyParserMiddleware
  /** Text body parser. */
  text(options?: OptionsText): BodyParserMiddleware
  /** URL-encoded form body parser. */
  urlencoded(options?: OptionsUrlencoded): BodyParserMiddleware
  /** Serve files from `root`. */
  static(root: string, options?: ServeStaticOptions): ServeStaticMiddleware
  /** The application prototype (extend it to add methods to every app). */
  application: Application
  /** The request prototype. */
  request: Request
  /** The response prototype. */
  response: Response
}

