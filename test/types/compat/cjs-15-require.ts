// A CommonJS program: `import = require`, namespace types, `export =`.
import express = require('switchyardjs')

const app: express.Express = express()
const router: express.Router = express.Router()

router.get('/:slug', (req: express.Request<{ slug: string }>, res: express.Response) => {
  res.send(req.params.slug)
})
const onError: express.ErrorRequestHandler = (err, _req, res, _next) => {
  res.status(500).send(String(err))
}
app.use(express.json(), express.urlencoded({ extended: false }))
app.use('/pages', router)
app.use(onError)
export = app
