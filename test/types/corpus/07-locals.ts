// res.locals and app.locals, typed through Express.Locals and the Locals generic.
import express, { type NextFunction, type Request, type Response } from 'switchyardjs'

declare global {
  namespace Express {
    interface Locals {
      startedAt: number
    }
  }
}

interface TenantLocals {
  tenant: { id: string; plan: 'free' | 'pro' }
}

function loadTenant(req: Request<{ tenant: string }>, res: Response<unknown, TenantLocals>, next: NextFunction) {
  res.locals.startedAt = Date.now()
  res.locals.tenant = { id: req.params.tenant, plan: req.params.tenant.startsWith('p') ? 'pro' : 'free' }
  next()
}

const app = express()
app.locals.startedAt = Date.now()
app.locals.title = 'Tenants'

app.get('/t/:tenant/usage', loadTenant, (_req: Request, res: Response<unknown, TenantLocals>) => {
  const { tenant, startedAt } = res.locals
  res.json({ tenant: tenant.id, plan: tenant.plan, ms: Date.now() - startedAt })
})
