import CSEKit
