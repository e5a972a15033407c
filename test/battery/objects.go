package battery

import (
	"context"
	"fmt"
	"strings"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/fsmserve/fsmserve/api/common"
)

// Objects seeds one object per state: new builds the object (a valid spec
// that can reach the goal) and lifecycle points at its status.lifecycle.
// machine names the lifecycle's machine.
func Objects[S ~string](machine string, new func(namespace, name string) client.Object, lifecycle func(client.Object) **common.Lifecycle) func(context.Context, client.Client, string, []S) ([]Subject, error) {
	return func(ctx context.Context, c client.Client, ns string, states []S) ([]Subject, error) {
		out := make([]Subject, 0, len(states))
		for _, s := range states {
			obj := new(ns, strings.ToLower(string(s)))
			if err := c.Create(ctx, obj); err != nil {
				return nil, fmt.Errorf("create the object for %s: %w", s, err)
			}
			*lifecycle(obj) = &common.Lifecycle{Machine: machine, State: string(s)}
			if err := c.Status().Update(ctx, obj); err != nil {
				return nil, fmt.Errorf("store state %s: %w", s, err)
			}
			key := client.ObjectKeyFromObject(obj)
			out = append(out, Subject{Name: key.String(), Stored: string(s), Lifecycle: func(ctx context.Context, c client.Client) (*common.Lifecycle, error) {
				now := new(key.Namespace, key.Name)
				if err := c.Get(ctx, key, now); err != nil {
					return nil, err
				}
				return *lifecycle(now), nil
			}})
		}
		return out, nil
	}
}
