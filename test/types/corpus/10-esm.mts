// An ES module program: `import` resolution mode, named imports.
import fw, { Router, json, urlencoded, type Request, type Response, type RouterOptions } from 'switchyardjs'
import bodyParser from 'switchyardjs/body-parser'

const options: RouterOptions = { caseSensitive: true }
const api = Router(options)

api.get('/orders/:orderId/lines/{:lineId}', (req: Request<{ orderId: string; lineId?: string }>, res: Response) => {
  res.json({ order: req.params.orderId, line: req.params.lineId ?? null })
})
api.post('/orders', (req, res) => {
  res.status(201).json(req.body)
})

const app = fw()
app.use(json(), urlencoded({ extended: false }), bodyParser.text())
app.use('/api', api)
await new Promise<void>((resolve) => app.listen(0, () => resolve()))
