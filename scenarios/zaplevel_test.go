package scenarios_test

import "go.uber.org/zap/zapcore"

// zapLevelError keeps the controllers' logs to errors while tables run.
func zapLevelError() zapcore.Level { return zapcore.ErrorLevel }
