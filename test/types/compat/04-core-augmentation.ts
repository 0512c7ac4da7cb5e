// The module augmentation many codebases carry, in the express-serve-static-core style.
import express, { type Request, type Response } from 'switchyardjs'

interface Tenant { id: string; plan: 'free' | 'pro' }

declare module 'express-serve-static-core' {
  interface Request {
    tenant?: Tenant
    startedAt: number
  }
  interface Response {
    problem(status: number, title: string): this
  }
  interface Application {
    readonly bootedAt: Date
  }
  interface Locals {
    csrfToken?: string
  }
}

const app = express()
app.use((req, res, next) => {
  req.startedAt = Date.now()
  req.tenant = { id: req.hostname.split('.')[0] ?? 'default', plan: 'free' }
  res.locals.csrfToken = 'token'
  next()
})

app.get('/plan', (req, res) => {
  if (!req.tenant) return res.problem(404, 'unknown tenant')
  res.json({ plan: req.tenant.plan, took: Date.now() - req.startedAt, booted: app.bootedAt.toISOString() })
})

function describe(req: Request, res: Response): string {
  return `${req.tenant?.id ?? '-'} ${res.locals.csrfToken ?? ''}`
}

const router = express.Router()
router.get('/who', (req, res) => { res.problem(418, describe(req, res)) })
app.use(router)
