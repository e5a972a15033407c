package engine

import (
	"fmt"
	"sort"
	"strings"
)

// DOT renders the machine as a Graphviz digraph: superstates as clusters, the
// initial state marked, every edge labelled with its trigger and guards.
func (s *Definition[S, T, O]) DOT() string {
	bp := s.Blueprint()
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %q {\n\tcompound=true;\n\trankdir=LR;\n\tnode [shape=box, style=rounded];\n", s.Name)
	children := s.children(bp)
	for _, top := range s.topLevel(bp) {
		s.dotState(&b, bp, children, top, 1)
	}
	fmt.Fprintf(&b, "\tinit [label=\"\", shape=point];\n\tinit -> %q;\n", s.Initial)
	for _, e := range bp.Edges {
		if e.Ignore {
			continue
		}
		from, attrs := string(e.From), ""
		if kids := children[e.From]; len(kids) > 0 {
			from = string(s.firstLeaf(children, e.From))
			attrs = fmt.Sprintf(", ltail=%q", "cluster_"+string(e.From))
		}
		fmt.Fprintf(&b, "\t%q -> %q [label=%q%s];\n", from, e.To, edgeLabel(e), attrs)
	}
	b.WriteString("}\n")
	return b.String()
}

func (s *Definition[S, T, O]) dotState(b *strings.Builder, bp Blueprint[S, T], children map[S][]S, st S, depth int) {
	indent := strings.Repeat("\t", depth)
	kids := children[st]
	if len(kids) == 0 {
		fmt.Fprintf(b, "%s%q;\n", indent, st)
		return
	}
	fmt.Fprintf(b, "%ssubgraph %q {\n%s\tlabel=%q;\n%s\tstyle=dashed;\n", indent, "cluster_"+string(st), indent, st, indent)
	for _, k := range kids {
		s.dotState(b, bp, children, k, depth+1)
	}
	fmt.Fprintf(b, "%s}\n", indent)
}

// Mermaid renders the machine as a Mermaid stateDiagram-v2. Mermaid can only
// draw an edge between two states of the same scope, so an edge whose ends are
// siblings is drawn inside their common composite, and any other edge (such as
// a superstate edge into one of its own children) becomes a note on its source.
func (s *Definition[S, T, O]) Mermaid() string {
	bp := s.Blueprint()
	children := s.children(bp)
	var b strings.Builder
	b.WriteString("stateDiagram-v2\n")
	fmt.Fprintf(&b, "\t[*] --> %s\n", s.Initial)
	var root S
	s.mermaidScope(&b, bp, children, root, s.topLevel(bp), 1)
	for _, st := range s.States {
		if st.Kind == Final {
			fmt.Fprintf(&b, "\t%s --> [*]\n", st.State)
		}
	}
	return b.String()
}

// mermaidScope writes the states of one scope (the top level when scope is
// ""), then the edges between them, then notes for edges that leave them.
func (s *Definition[S, T, O]) mermaidScope(b *strings.Builder, bp Blueprint[S, T], children map[S][]S, scope S, members []S, depth int) {
	indent := strings.Repeat("\t", depth)
	for _, m := range members {
		if kids := children[m]; len(kids) > 0 {
			fmt.Fprintf(b, "%sstate %s {\n", indent, m)
			s.mermaidScope(b, bp, children, m, kids, depth+1)
			fmt.Fprintf(b, "%s}\n", indent)
		}
	}
	notes := map[S][]string{}
	for _, e := range bp.Edges {
		if e.Ignore || bp.Super[e.From] != scope {
			continue
		}
		if bp.Super[e.To] == scope {
			fmt.Fprintf(b, "%s%s --> %s : %s\n", indent, e.From, e.To, edgeLabel(e))
			continue
		}
		notes[e.From] = append(notes[e.From], fmt.Sprintf("%s → %s", edgeLabel(e), e.To))
	}
	for _, m := range members {
		if len(notes[m]) == 0 {
			continue
		}
		prefix := ""
		if len(children[m]) > 0 {
			prefix = "From any state inside: "
		}
		fmt.Fprintf(b, "%snote right of %s\n%s\t%s%s\n%send note\n", indent, m, indent, prefix, strings.Join(notes[m], "; "), indent)
	}
}

func edgeLabel[S ~string, T ~string](e Edge[S, T]) string {
	if len(e.Guards) == 0 {
		return string(e.Trigger)
	}
	return fmt.Sprintf("%s [%s]", e.Trigger, strings.Join(e.Guards, ", "))
}

func (s *Definition[S, T, O]) children(bp Blueprint[S, T]) map[S][]S {
	out := map[S][]S{}
	for _, st := range s.States {
		if super, ok := bp.Super[st.State]; ok {
			out[super] = append(out[super], st.State)
		}
	}
	return out
}

func (s *Definition[S, T, O]) topLevel(bp Blueprint[S, T]) []S {
	var out []S
	for _, st := range s.States {
		if _, ok := bp.Super[st.State]; !ok {
			out = append(out, st.State)
		}
	}
	return out
}

func (s *Definition[S, T, O]) firstLeaf(children map[S][]S, st S) S {
	for len(children[st]) > 0 {
		kids := append([]S(nil), children[st]...)
		sort.SliceStable(kids, func(i, j int) bool { return len(children[kids[i]]) < len(children[kids[j]]) })
		st = kids[0]
	}
	return st
}
