// Names imported from express-serve-static-core directly, as many codebases do.
import express from 'switchyardjs'
import type {
  ApplicationRequestHandler,
  ByteRange,
  Dictionary,
  Handler,
  IRouterHandler,
  Locals,
  MediaType,
  Params,
  ParamsDictionary,
  ParamsFlatDictionary,
  PathParams,
  Query,
  Request,
  RequestHandler,
  RequestRanges,
  Response
} from 'express-serve-static-core'

const paths: PathParams = ['/a', /b/]
const flat: ParamsFlatDictionary = { 0: 'first', name: 'x' }
const either: Params = flat
const counts: Dictionary<number> = { a: 1 }
const range: ByteRange = { start: 0, end: 99 }
const accepted: MediaType = { value: 'text/html', quality: 1, type: 'text', subtype: 'html' }
const locals: Locals = {}

function ranges(req: Request): RequestRanges | undefined {
  const r = req.range(1000)
  return typeof r === 'object' ? r : undefined
}

const byQuery: RequestHandler<ParamsDictionary, string, unknown, Query> = (req, res: Response<string>) => {
  res.send(String(req.query.q))
}
const plain: Handler = (_req, res) => { res.end() }

const app = express()
const use: ApplicationRequestHandler<typeof app> = app.use
app.use(paths, byQuery, plain)
const route = app.route('/orders/:orderId')
const onGet: IRouterHandler<typeof route, '/orders/:orderId'> = route.get
onGet((req, res) => { res.send(req.params.orderId) })

export { either, counts, range, accepted, locals, ranges, use }
