// CSEPayments: module sources land here.
