// More patterns that compile against @types/express and must compile
// unchanged against switchyard (found by the second types sweep): a module
// that imports only named exports and exports an inferred router (declaration
// emit under bundler resolution named it through a path the package hides:
// TS2742); res.format, res.links and res.set given objects typed by an
// interface, or a union; sendFile/static options typed as boolean; and
// fw.static assigned to serve-static's own handler type.
import { Router, static as serveStatic } from 'switchyardjs'
import type { Request, Response } from 'switchyardjs'

/** Exported inferred: declaration emit must name it from outside the package. */
export const namedRouter = Router()
export const mergedRouter = Router({ mergeParams: true })
export function makeRouter() {
  return Router().get('/', (req, res) => { res.end() })
}

// handlers typed by an interface (no index signature)
interface Formats {
  json: () => void
  html: () => void
}
interface PageLinks {
  next: string
  prev: string
}
namedRouter.get('/list', (req: Request, res: Response) => {
  const formats: Formats = { json: () => { res.json([]) }, html: () => { res.send('<ul></ul>') } }
  res.format(formats)
  const links: PageLinks = { next: '/list?page=2', prev: '/list?page=0' }
  res.links(links)
})

// a header argument typed as a union of the two forms
export function applyHeaders(res: Response, headers: string | Record<string, string>): void {
  res.set(headers)
  res.header(headers)
}

// options declared with boolean types (a value of false at run time)
interface FileOptions { index: boolean; extensions: boolean }
const fileOptions: FileOptions = { index: false, extensions: false }
namedRouter.get('/file', (req, res) => { res.sendFile('/tmp/file.txt', fileOptions) })
namedRouter.get('/download', (req, res) => { res.download('/tmp/file.txt', 'file.txt', fileOptions) })
interface StaticOptions { index: boolean; dotfiles: string }
const staticOptions: StaticOptions = { index: false, dotfiles: 'ignore' }
namedRouter.use(serveStatic('public', staticOptions))

// fw.static where a handler of the shape serve-static's types declare is expected
type StaticHandler = (request: import('node:http').IncomingMessage, response: Response, next: (err?: Error) => void) => unknown
export const assets: StaticHandler = serveStatic('assets')
