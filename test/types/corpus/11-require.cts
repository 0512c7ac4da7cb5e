// A CommonJS program using `import x = require()`, as in older TypeScript codebases.
import express = require('switchyardjs')
import bodyParser = require('switchyardjs/body-parser')

const app: express.Express = express()
const router: express.Router = express.Router()

router.get('/:slug', (req: express.Request<{ slug: string }>, res: express.Response) => {
  res.send(req.params.slug)
})

const errorHandler: express.ErrorRequestHandler = (err, _req, res, _next) => {
  res.status(500).send(String(err))
}

app.use(bodyParser.json(), express.urlencoded({ extended: true }))
app.use('/pages', router)
app.use(errorHandler)
export = app
