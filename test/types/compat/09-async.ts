// Async handlers: Express 5 forwards rejections to next(err).
import express, { type NextFunction, type Request, type Response } from 'switchyardjs'

interface Product { sku: string; price: number }
const db = {
  async find(sku: string): Promise<Product | undefined> { return sku ? { sku, price: 1 } : undefined },
  async all(): Promise<Product[]> { return [] }
}

const app = express()

app.get('/products', async (_req, res) => {
  res.json(await db.all())
})

app.get('/products/:sku', async (req, res, next) => {
  const product = await db.find(req.params.sku)
  if (!product) return next()
  res.json(product)
})

async function guard(req: Request, res: Response, next: NextFunction): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1))
  if (req.get('x-blocked')) {
    res.sendStatus(403)
    return
  }
  next()
}
app.use(guard)

const wrap =
  (fn: (req: Request, res: Response, next: NextFunction) => Promise<unknown>) =>
  (req: Request, res: Response, next: NextFunction) => {
    fn(req, res, next).catch(next)
  }
app.post('/products', express.json(), wrap(async (req, res) => {
  res.status(201).json(req.body)
}))
