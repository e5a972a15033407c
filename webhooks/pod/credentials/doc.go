// Package credentials turns storage credentials into what a storage
// initializer or agent container needs: environment variables read from
// secrets, secret volumes, and the settings of the store. It follows KServe's
// conventions (which secret data key means which provider, which variable
// names the storage initializer reads), so secrets written for KServe work
// unchanged.
//
// Resolve does the reading; everything else is pure and works on what Resolve
// returned.
package credentials
