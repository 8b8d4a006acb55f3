// CSECrypto: module sources land here.
