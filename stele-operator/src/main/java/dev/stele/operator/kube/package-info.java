/**
 * What every reconciler shares: the operator's {@link dev.stele.operator.kube.Settings}, Events,
 * status conditions, Secret reading, API discovery, times and durations as the resources spell
 * them, and how a failure caused by the operator stopping is told from a real one. Depends on
 * nothing else of the operator's.
 */
package dev.stele.operator.kube;
