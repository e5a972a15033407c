package predictor

import (
	"regexp"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

var trailingTag = regexp.MustCompile(`(:([\w.\-_]*))$`)

// updateImageTag applies KServe's image rules: runtimeVersion replaces the tag;
// otherwise GPU containers of TensorFlow Serving, TorchServe and the Hugging
// Face server get the -gpu image, and CPU vLLM containers the -cpu one. Images
// pinned by digest are left alone.
func updateImageTag(c *corev1.Container, runtimeVersion *string, serverType string) {
	image := c.Image
	if strings.Contains(image, "@sha256:") || image == "" {
		return
	}
	if runtimeVersion != nil && *runtimeVersion != "" {
		if trailingTag.MatchString(lastSegment(image)) {
			c.Image = trailingTag.ReplaceAllString(image, ":"+*runtimeVersion)
		} else {
			c.Image = image + ":" + *runtimeVersion
		}
		return
	}
	if !trailingTag.MatchString(lastSegment(image)) {
		return
	}
	gpu := hasGPU(c)
	switch {
	case gpu && (serverType == "tensorflow-serving" || serverType == "torchserve" || serverType == "huggingfaceserver"):
		if !strings.HasSuffix(image, "-gpu") {
			c.Image = image + "-gpu"
		}
	case !gpu && serverType == "vllmserver":
		i := strings.LastIndex(image, ":")
		if repo := image[:i]; !strings.HasSuffix(repo, "-cpu") {
			c.Image = repo + "-cpu" + image[i:]
		}
	}
}

// lastSegment is the part after the last '/', so a registry port is not
// mistaken for a tag.
func lastSegment(image string) string {
	return image[strings.LastIndex(image, "/")+1:]
}

func hasGPU(c *corev1.Container) bool {
	for name := range c.Resources.Limits {
		if name == "nvidia.com/gpu" || strings.HasPrefix(string(name), "nvidia.com/mig") {
			return true
		}
	}
	return false
}
