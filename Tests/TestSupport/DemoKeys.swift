// The TEST-ONLY demo key pair (`DemoKeys`) for every test target: it lives in the non-product
// CSEDemoKeys target, shared with `cse demo`, and is re-exported here.
@_exported import CSEDemoKeys
