/**
 * The way from a storage location's settings to a blob store: a {@link
 * dev.stele.operator.store.Place} (a location with its Secrets resolved) and the {@link
 * dev.stele.operator.store.StoreFactory} that opens it, on a directory or an S3 bucket. Tests swap
 * the factory to run the operator on directories or a local S3 server.
 */
package dev.stele.operator.store;
