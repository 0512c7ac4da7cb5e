// An ES module: top-level await, import.meta, types through the default import.
import express from 'switchyardjs'
import { fileURLToPath } from 'node:url'
import path from 'node:path'

const here = path.dirname(fileURLToPath(import.meta.url))
const app = express()

const cors: express.RequestHandler = (_req, res, next) => {
  res.header('Access-Control-Allow-Origin', '*')
  next()
}
function hello(req: express.Request<{ name: string }>, res: express.Response<string>, next: express.NextFunction) {
  if (!req.params.name) return next()
  res.send(`hello ${req.params.name}`)
}
const api: express.Router = express.Router()
api.get('/hello/:name', hello)

app.use(cors, express.static(path.join(here, 'public')))
app.use('/api', api)
const server = await new Promise<import('node:http').Server>((resolve) => {
  const s = app.listen(0, () => resolve(s))
})
server.close()

// body-parser's option types through its default import
import bodyParser from 'switchyardjs/body-parser'
const jsonOptions: bodyParser.OptionsJson = { limit: '1mb', strict: true }
app.use(bodyParser.json(jsonOptions), bodyParser.urlencoded({ extended: false } satisfies bodyParser.OptionsUrlencoded))
