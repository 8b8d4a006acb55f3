import CSECLI
