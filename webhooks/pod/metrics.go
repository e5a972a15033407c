package pod

import (
	"strconv"

	corev1 "k8s.io/api/core/v1"

	"github.com/fsmserve/fsmserve/api/v1beta1"
	"github.com/fsmserve/fsmserve/config"
	"github.com/fsmserve/fsmserve/webhooks/pod/internal/podspec"
)

// injectMetricsAggregation records the effective aggregation and scraping
// switches on the pod (defaulted from the metricsAggregator config), has
// Knative's queue-proxy merge the model server's metrics with its own on port
// 9088 when aggregation is on, and adds Prometheus scrape annotations when
// scraping is on.
func injectMetricsAggregation(pod *corev1.Pod, in *Inputs) error {
	if pod.Annotations == nil {
		pod.Annotations = map[string]string{}
	}
	_, hasAggregation := pod.Annotations[v1beta1.EnableMetricAggregationAnnotation]
	_, hasScraping := pod.Annotations[v1beta1.EnablePrometheusScrapingAnnotation]
	if !hasAggregation || !hasScraping {
		if err := in.needKeys(config.KeyMetricsAggregator); err != nil {
			return err
		}
	}
	cfg := in.Config.MetricsAggregator
	if !hasAggregation {
		pod.Annotations[v1beta1.EnableMetricAggregationAnnotation] = cfg.EnableMetricAggregation
	}
	if !hasScraping {
		pod.Annotations[v1beta1.EnablePrometheusScrapingAnnotation] = cfg.EnablePrometheusScraping
	}
	aggregate := pod.Annotations[v1beta1.EnableMetricAggregationAnnotation] == "true"
	if aggregate {
		configureQueueProxyAggregation(pod)
	}
	if pod.Annotations[v1beta1.EnablePrometheusScrapingAnnotation] == "true" {
		port := defaultPodPrometheusPort
		if aggregate {
			port = strconv.Itoa(aggregateMetricsPort)
		}
		pod.Annotations[prometheusPortAnnotation] = port
		pod.Annotations[prometheusPathAnnotation] = defaultPrometheusPath
	}
	return nil
}

func configureQueueProxyAggregation(pod *corev1.Pod) {
	qp := podspec.Container(pod.Spec.Containers, queueProxyContainerName)
	if qp == nil {
		return
	}
	port, path := defaultUserPrometheusPort, defaultPrometheusPath
	if v, ok := pod.Annotations[v1beta1.PrometheusPortAnnotation]; ok {
		port = v
	}
	if v, ok := pod.Annotations[v1beta1.PrometheusPathAnnotation]; ok {
		path = v
	}
	podspec.SetEnvValue(qp, envPromMetricsPort, port)
	podspec.SetEnvValue(qp, envPromMetricsPath, path)
	podspec.SetEnvValue(qp, envAggregateMetricsPort, strconv.Itoa(aggregateMetricsPort))
	for _, p := range qp.Ports {
		if p.Name == aggregateMetricsPortName {
			return
		}
	}
	qp.Ports = append(qp.Ports, corev1.ContainerPort{Name: aggregateMetricsPortName, ContainerPort: aggregateMetricsPort, Protocol: corev1.ProtocolTCP})
}
