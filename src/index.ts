/**
 * Switchyard: a fast, typed drop-in for Express 5.
 *
 * @example
 * import fw from 'switchyardjs'
 * const app = fw()
 * app.get('/', (req, res) => { res.send('Hello World') })
 * app.listen(3000)
 */
import { EventEmitter } from 'node:events'
import { application } from './application'
import { request } from './request'
import { response } from './response'
import { Router as RouterImpl, Route as RouteImpl } from './router/index'
import { json as jsonImpl, raw as rawImpl, text as textImpl, urlencoded as urlencodedImpl } from './body/index'
import { serveStatic } from './static'
import { lib, libExports } from './express-lib'
import type { Switchyard } from './types/index'

export type * from './types/index'

function mixin(target: object, source: object): void {
  for (const name of Object.getOwnPropertyNames(source)) {
    if (Object.prototype.hasOwnProperty.call(target, name)) continue
    Object.defineProperty(target, name, Object.getOwnPropertyDescriptor(source, name)!)
  }
}

/** Create an application: a request handler `(req, res, next?)` for `http.createServer`. */
function createApplication(): any {
  // The function is named where it is made ('app', the name Express's gets)
  // and no other binding here shares its name: the bundle then keeps its own
  // name, and it keeps fast properties, which every request reads
  //.
  const self: any = function app(req: any, res: any, next?: any) {
    self.handle(req, res, next)
  }
  mixin(self, EventEmitter.prototype)
  mixin(self, application)
  self.request = Object.create(request, { app: { configurable: true, enumerable: true, writable: true, value: self } })
  self.response = Object.create(response, { app: { configurable: true, enumerable: true, writable: true, value: self } })
  self.init()
  return self
}

const fw = createApplication as unknown as Switchyard
const api = fw as any
// in Express's order (Object.keys, util.inspect, the ESM build's named exports)
api.application = application
api.request = request
api.response = response
api.Route = RouteImpl
api.Router = RouterImpl
api.json = jsonImpl
api.raw = rawImpl
api.static = serveStatic
api.text = textImpl
api.urlencoded = urlencodedImpl
// express/lib/view and express/lib/utils under the npm alias (src/express-lib.ts)
Object.defineProperty(api, libExports, { value: lib })

export default fw
/** Create a router. */
export const Router = fw.Router
/** The Route class (`router.route(path)` returns one). */
export const Route = fw.Route
/** JSON body parser middleware factory. */
export const json = fw.json
/** Raw (Buffer) body parser middleware factory. */
export const raw = fw.raw
/** Text body parser middleware factory. */
export const text = fw.text
/** URL-encoded form body parser middleware factory. */
export const urlencoded = fw.urlencoded
export { application, request, response }
// `static` is a reserved word: it is reached as fw.static, and the ESM build also
// exports it by name (`import { static as serveStatic } from "switchyardjs"`).
