// Package podspec holds the small, idempotent edits the pod mutator makes to
// containers and pod specs: each one adds a thing only when a thing of that
// name is not there yet, so running a step twice changes nothing.
package podspec

import corev1 "k8s.io/api/core/v1"

// Container returns the container named name, or nil.
func Container(list []corev1.Container, name string) *corev1.Container {
	for i := range list {
		if list[i].Name == name {
			return &list[i]
		}
	}
	return nil
}

// AddVolume appends v unless the pod already has a volume of that name.
func AddVolume(volumes *[]corev1.Volume, v corev1.Volume) {
	for _, have := range *volumes {
		if have.Name == v.Name {
			return
		}
	}
	*volumes = append(*volumes, v)
}

// AddMount appends m unless c already mounts a volume of that name.
func AddMount(c *corev1.Container, m corev1.VolumeMount) {
	for _, have := range c.VolumeMounts {
		if have.Name == m.Name {
			return
		}
	}
	c.VolumeMounts = append(c.VolumeMounts, m)
}

// SetEnv sets e on c, replacing a variable of the same name in place so the
// order of the others does not change.
func SetEnv(c *corev1.Container, e corev1.EnvVar) {
	for i := range c.Env {
		if c.Env[i].Name == e.Name {
			c.Env[i] = e
			return
		}
	}
	c.Env = append(c.Env, e)
}

// SetEnvValue sets a plain-valued variable.
func SetEnvValue(c *corev1.Container, name, value string) {
	SetEnv(c, corev1.EnvVar{Name: name, Value: value})
}

// AddEnvIfAbsent appends each variable whose name c does not define yet; the
// user's value wins over ours.
func AddEnvIfAbsent(c *corev1.Container, vars ...corev1.EnvVar) {
	for _, e := range vars {
		if _, ok := EnvValue(c, e.Name); !ok {
			c.Env = append(c.Env, e)
		}
	}
}

// EnvValue returns the plain value of the variable name and whether c defines it.
func EnvValue(c *corev1.Container, name string) (string, bool) {
	for _, e := range c.Env {
		if e.Name == name {
			return e.Value, true
		}
	}
	return "", false
}

// SecretEnv is a variable read from key of the named secret.
func SecretEnv(name, secret, key string) corev1.EnvVar {
	return corev1.EnvVar{Name: name, ValueFrom: &corev1.EnvVarSource{
		SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: secret}, Key: key},
	}}
}
