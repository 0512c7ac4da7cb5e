// A CommonJS project without esModuleInterop (and so without
// allowSyntheticDefaultImports): the package is reached through
// `import * as` and `import = require`, as @types/express allows there.
import * as express from 'switchyardjs'
import bodyParser = require('switchyardjs/body-parser')
import * as http from 'node:http'

const app: express.Express = express()
const router = express.Router({ mergeParams: true })

router.get('/:id', (req: express.Request<{ id: string }>, res: express.Response, next: express.NextFunction) => {
  if (req.params.id === 'skip') return next()
  res.json({ id: req.params.id, query: req.query })
})

const handler: express.RequestHandler = (req, res) => {
  res.status(404).type('text').send(req.originalUrl)
}
const onError: express.ErrorRequestHandler = (err, _req, res, _next) => {
  res.status(500).send(String(err))
}

app.use(bodyParser.json({ limit: '1mb' }), express.urlencoded({ extended: true }))
app.use(express.static('public', { maxAge: '1d' }))
app.use('/items', router)
app.use(handler)
app.use(onError)

const server: http.Server = http.createServer(app)
server.listen(0)
