import { statSync, type Stats } from 'node:fs'
import { basename, dirname, extname, join, resolve as resolvePath } from 'node:path'
import { createRequire } from 'node:module'
import createDebug from 'debug'

/** express@5.3's debug namespace for views (`DEBUG=express:view`), with its messages. */
const debug = createDebug('express:view')

/** A template engine: `(path, options, callback(err, html))`, the `__express` signature. */
export type Engine = (path: string, options: object, callback: (err: Error | null, html?: string) => void) => void

/** Options a View is created with by `app.render`. */
export interface ViewOptions {
  defaultEngine?: string
  root: string | string[]
  engines: Record<string, Engine>
}

function tryStat(path: string): Stats | undefined {
  try {
    return statSync(path)
  } catch {
    return undefined
  }
}

/**
 * Load a template engine module by name as Express does: `require(name)`
 * from the library's own location, so the module found (and its version) is
 * the one an app on express@5 installed in the same place gets. (Only where
 * this code runs without a CommonJS `require`, as the test runner loads the
 * TypeScript sources, from the working directory.)
 */
function loadEngineModule(name: string): any {
  if (typeof require === 'function') return require(name)
  return createRequire(join(process.cwd(), 'noop.js'))(name)
}

/** A view: a template name resolved to a file under the `views` directories, rendered with the engine registered (or loaded) for its extension. */
export interface View {
  defaultEngine: string | undefined
  ext: string
  name: string
  root: string | string[]
  engine: Engine
  path: string | undefined
  /** The first existing file for `name` under the roots, in order. */
  lookup(name: string): string | undefined
  /** Render with the engine; the callback is always called asynchronously. */
  render(options: object, callback: (err: Error | null, html?: string) => void): void
  /** `dir/file` or `dir/<file without ext>/index.<ext>`, whichever is a file. */
  resolve(dir: string, file: string): string | undefined
}

/** The View constructor (the `view` setting's default). */
export interface ViewConstructor {
  new (name: string, options: ViewOptions): View
  prototype: View
}

/**
 * A constructor function, not a class, as Express's: what code reads of it
 * is the same (`util.inspect` prints `[Function: View]`, the prototype's
 * methods are enumerable, in Express's order).
 */
export const View = function View(this: View, name: string, opts: ViewOptions) {
  // (no options is an empty set of them, as in Express: then a name without
  // an extension is refused for want of a default engine)
  const options = opts || ({} as ViewOptions)
  this.defaultEngine = options.defaultEngine
  this.ext = extname(name)
  this.name = name
  this.root = options.root
  if (!this.ext && !this.defaultEngine) throw new Error('No default engine was specified and no extension was provided.')
  let fileName = name
  if (!this.ext) {
    const engine = this.defaultEngine as string
    this.ext = engine[0] !== '.' ? '.' + engine : engine
    fileName += this.ext
  }
  if (!options.engines[this.ext]) {
    const mod = this.ext.slice(1)
    debug('require "%s"', mod)
    const fn = loadEngineModule(mod).__express
    if (typeof fn !== 'function') throw new Error('Module "' + mod + '" does not provide a view engine.')
    options.engines[this.ext] = fn
  }
  this.engine = options.engines[this.ext]
  this.path = this.lookup(fileName)
} as unknown as ViewConstructor

View.prototype.lookup = function lookup(this: View, name: string): string | undefined {
  debug('lookup "%s"', name)
  const roots = ([] as string[]).concat(this.root)
  let path: string | undefined
  for (let i = 0; i < roots.length && !path; i++) {
    const loc = resolvePath(roots[i], name)
    path = this.resolve(dirname(loc), basename(loc))
  }
  return path
}

View.prototype.render = function render(this: View, options: object, callback: (err: Error | null, html?: string) => void): void {
  debug('render "%s"', this.path)
  let sync = true
  this.engine(this.path as string, options, function onRender(this: unknown, ...args: any[]) {
    if (!sync) return (callback as any).apply(this, args)
    process.nextTick(() => (callback as any).apply(this, args))
  })
  sync = false
}

View.prototype.resolve = function resolve(this: View, dir: string, file: string): string | undefined {
  const ext = this.ext
  let path = join(dir, file)
  debug('stat "%s"', path)
  let stat = tryStat(path)
  if (stat && stat.isFile()) return path
  path = join(dir, basename(file, ext), 'index' + ext)
  debug('stat "%s"', path)
  stat = tryStat(path)
  if (stat && stat.isFile()) return path
  return undefined
}
