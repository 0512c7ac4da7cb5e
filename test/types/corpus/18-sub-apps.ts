// Sub-applications: mounting, the mount event, mountpath and settings.
import http from 'node:http'
import express, { type Application } from 'switchyardjs'

const admin = express()
admin.on('mount', (parent: Application) => {
  console.log('admin mounted under', admin.mountpath, 'of', parent.path() || '/')
})
admin.get('/', (req, res) => {
  res.send(`Admin home at ${req.baseUrl}`)
})

const app = express()
app.disable('x-powered-by')
app.set('trust proxy', 'loopback')
app.set('json spaces', 2)
app.enable('strict routing')
app.use(['/admin', '/manager'], admin)

if (app.enabled('strict routing') && app.get('env') !== 'production') {
  console.log('development mode')
}

const server: http.Server = http.createServer(app)
server.listen(0)
