// CSEKit: the umbrella module. `import CSEKit` gives the whole public API.
@_exported import CSECore
@_exported import CSECrypto
@_exported import CSEJOSE
@_exported import CSEValidation
@_exported import CSEPayments
@_exported import CSEGateways
@_exported import CSEWallets
@_exported import CSEHTTP
@_exported import CSEClientAPI
@_exported import CSEServerAPI
@_exported import CSEWalletsHTTP
