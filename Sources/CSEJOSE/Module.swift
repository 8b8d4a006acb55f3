// CSEJOSE: module sources land here.
