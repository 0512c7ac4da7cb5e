// A migration in progress: @types/express is still installed (other libraries
// depend on it) and both declare the global Express namespace; augmentations
// reach switchyard's Request as well as Express's.
import type * as ExpressTypes from 'express'
import fw, { type Request } from 'switchyardjs'

declare global {
  namespace Express {
    interface Request {
      tenantId?: string
    }
  }
}

const legacy = (req: ExpressTypes.Request): string | undefined => req.tenantId

const app = fw()
app.get('/t', (req: Request, res) => {
  res.send(req.tenantId ?? 'none')
})
export { legacy }
