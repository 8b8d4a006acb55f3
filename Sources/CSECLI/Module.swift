// CSECLI: module sources land here.
