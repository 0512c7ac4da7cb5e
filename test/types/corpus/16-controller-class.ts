// Class-based controllers whose methods are route handlers.
import express, { Router, type NextFunction, type Request, type Response } from 'switchyardjs'

interface Product {
  id: string
  price: number
}

interface ProductRepository {
  find(id: string): Promise<Product | undefined>
  all(): Promise<Product[]>
}

export class ProductController {
  constructor(private readonly repo: ProductRepository) {}

  list = async (_req: Request, res: Response<Product[]>): Promise<void> => {
    res.json(await this.repo.all())
  }

  show = async (req: Request<{ id: string }>, res: Response<Product | { error: string }>, next: NextFunction): Promise<void> => {
    try {
      const product = await this.repo.find(req.params.id)
      if (!product) {
        res.status(404).json({ error: 'no such product' })
        return
      }
      res.json(product)
    } catch (err) {
      next(err)
    }
  }

  routes(): Router {
    const router = Router()
    router.get('/', this.list)
    router.get('/:id', this.show)
    return router
  }
}

const repo: ProductRepository = { find: async (id) => ({ id, price: 1 }), all: async () => [] }
const app = express()
app.use('/products', new ProductController(repo).routes())
