package webhooks_test

import "go.uber.org/zap/zapcore"

func errorLevel() zapcore.Level { return zapcore.ErrorLevel }
