// CSEValidation: module sources land here.
