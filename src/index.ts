// placeholder: the foundation lands here (application + router); see docs/design.md
const fw: any = function createApplication() { throw new Error('not yet') }
export default fw
